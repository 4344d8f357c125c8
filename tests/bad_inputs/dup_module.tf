module "m" {
  source = "./m"
}
module "m" {
  source = "./m"
}
