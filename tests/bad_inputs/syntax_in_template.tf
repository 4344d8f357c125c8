locals {
  greeting = "hello ${var.name + }"
}
