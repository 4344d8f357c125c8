resource "a_b" "c" {
  x = each.value
}
