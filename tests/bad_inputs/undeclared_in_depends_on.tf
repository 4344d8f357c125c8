resource "a_b" "c" {
  depends_on = [a_b.ghost]
}
