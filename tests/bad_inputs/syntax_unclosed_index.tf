locals {
  l = [1, 2]
  x = local.l[0
}
