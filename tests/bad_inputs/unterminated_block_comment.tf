resource "a_b" "c" {}
/* never closed
