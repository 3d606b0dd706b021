from app.cli import main
import sys
sys.exit(main())
