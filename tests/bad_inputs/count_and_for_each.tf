resource "a_b" "c" {
  count    = 2
  for_each = {}
}
