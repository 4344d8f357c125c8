resource "a_b" "c" {
  for_each = 3
}
