resource "a_b" "c" {
  x = a_b.missing.id
}
