import sys

from pwscup.client.cli import main

sys.exit(main())
