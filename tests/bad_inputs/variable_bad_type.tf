variable "v" {
  type = strang
}
