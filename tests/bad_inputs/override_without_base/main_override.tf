resource "a_b" "missing" {
  x = 1
}
