resource "a_b" "a" {
  v = a_b.b.id
}
resource "a_b" "b" {
  v = a_b.c.id
}
resource "a_b" "c" {
  v = a_b.d.id
}
resource "a_b" "d" {
  v = a_b.a.id
}
