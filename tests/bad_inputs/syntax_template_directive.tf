locals {
  s = "%{ if true }yes%{ endfor }"
}
