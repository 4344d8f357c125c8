provider "aws" {
  alias = "east"
}
provider "aws" {
  alias = "east"
}
