resource "a_b" "c" {
  x = local.missing
}
