locals {
  x = (1 + 2
  y = 3
}
