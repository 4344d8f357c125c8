output "o" {}
