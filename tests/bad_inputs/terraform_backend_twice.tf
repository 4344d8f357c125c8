terraform {
  backend "s3" {}
  backend "local" {}
}
