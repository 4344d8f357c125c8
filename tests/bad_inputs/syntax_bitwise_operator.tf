locals {
  both = true & false
}
