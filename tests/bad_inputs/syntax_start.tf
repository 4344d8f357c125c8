= "x"
resource "a_b" "c" {}
