locals {
  doc = <<EOT
line one
line two
}
