resource "a_b" "c" {
  count = 100000000
}
