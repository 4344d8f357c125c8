resource "a_b" "c" {
  for_each = ["a", "b"]
}
