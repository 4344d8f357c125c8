provider "aws" {}
provider "aws" {}
