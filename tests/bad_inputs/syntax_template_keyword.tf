locals {
  s = "%{ iff true }x%{ endif }"
}
