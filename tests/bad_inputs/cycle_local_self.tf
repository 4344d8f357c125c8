locals {
  a = local.a
}
