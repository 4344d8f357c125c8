locals {
  doc = <<-EOT
    text
    EOTX
}
