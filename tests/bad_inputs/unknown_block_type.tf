resources "a_b" "c" {}
