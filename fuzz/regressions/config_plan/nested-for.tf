locals {
  a = range(1000)
  b = [for x in local.a: [for y in local.a: [for z in local.a: 1]]]
}
resource "a_b" "c" {
  count = length(local.b)
}
