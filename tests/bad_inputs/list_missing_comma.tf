locals {
  l = [1 2]
}
