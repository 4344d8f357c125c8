resource "a_b" "c" {
  x = var.missing
}
