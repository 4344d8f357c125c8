locals {
  doc = <<EOT
line one EOT
}
