data "a_d" "x" {}

resource "a_b" "c" {
  v = a_d.x.id
}
