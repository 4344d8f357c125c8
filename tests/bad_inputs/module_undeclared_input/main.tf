module "m" {
  source = "./m"
  wrong  = 1
}
