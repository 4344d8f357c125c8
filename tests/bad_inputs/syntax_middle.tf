resource "a_b" "c" {}

variable "v" {
  default = 1 +
}

output "o" {
  value = 1
}
