// toolgate's entry point: serves the compiled-in catalogue.
#include "app/app.hpp"
#include "app/catalogue_service.hpp"

int main(int argc, char** argv)
{
    return toolgate::app::run_main(argc, argv, toolgate::app::make_catalogue_service);
}
