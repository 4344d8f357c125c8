resource "a_b" "c" {
  x = a_b.c.id
}
