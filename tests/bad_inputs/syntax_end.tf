resource "a_b" "c" {
  x = 1
