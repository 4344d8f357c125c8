locals {
  l = [1, 2]
  x = local.l[99999999999999999999999999]
}
resource "a_b" "c" {
  x = local.nope
}
