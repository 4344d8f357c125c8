locals {
  x = "a ${local.y"
}
