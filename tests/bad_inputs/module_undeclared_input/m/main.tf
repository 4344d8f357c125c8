variable "right" {
  default = 1
}
