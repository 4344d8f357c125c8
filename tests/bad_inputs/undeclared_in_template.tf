locals {
  s = "prefix-${var.gone}-suffix"
}
