resource "a_b" "c" {
  count = 1.5
}
