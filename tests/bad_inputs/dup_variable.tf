variable "v" {}

variable "v" {
  default = 1
}
