resource "a_b" "c" {
  x = count.index
}
