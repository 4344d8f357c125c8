locals {
  l = [1, 2, 3
}
