locals {
  s = 'x'
}
