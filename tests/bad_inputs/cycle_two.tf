resource "a_b" "x" {
  v = a_b.y.id
}
resource "a_b" "y" {
  v = a_b.x.id
}
