locals {
  x = join(",", "a" "b")
}
