resource "a_b" "c" {
  x = 1
  x = 2
}
