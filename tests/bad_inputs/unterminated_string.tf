resource "a_b" "c" {
  name = "abc
}
