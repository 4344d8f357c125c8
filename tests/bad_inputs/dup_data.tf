data "a_b" "c" {}

data "a_b" "c" {}
