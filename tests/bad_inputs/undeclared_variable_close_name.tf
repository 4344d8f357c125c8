variable "region" {}

resource "a_b" "c" {
  x = var.regoin
}
