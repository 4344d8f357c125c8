resource "a_b" "c" {
  count = "many"
}
