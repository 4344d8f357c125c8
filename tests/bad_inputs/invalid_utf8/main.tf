resource "a_b" "c" {
  name = "café"
}
