resource "a_b" "c" {
  1x = 2
}
