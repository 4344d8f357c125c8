locals {
  region = "eu-west-1"
}

output "r" {
  value = local.regoin
}
