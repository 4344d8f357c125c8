resource "a_b" "c" {
  x = path.nope
}
